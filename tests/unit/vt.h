/*
 * vt.h - the in-house unit test runner.  A test file defines functions with
 * VT_TEST(name) and lists them in VT_MAIN(...).  Each test prints one line,
 * "ok NAME" or "not ok NAME: file:line: what failed"; the binary exits 1
 * if any failed.  tests/run.sh counts those lines into the suite's total.
 * Checks do not stop the test: every failing check of a test is printed.
 */
#ifndef VT_H
#define VT_H

#include <stdio.h>
#include <string.h>

static int vt_failed_checks;
static const char *vt_current;

#define VT_TEST(name) static void name(void)

#define VT_FAIL_AT(file, line, ...)                                           \
	do {                                                                  \
		if (vt_failed_checks++ == 0)                                  \
			printf("not ok %s: %s:%d: ", vt_current, file, line); \
		else                                                          \
			printf("    also %s:%d: ", file, line);               \
		printf(__VA_ARGS__);                                          \
		printf("\n");                                                 \
	} while (0)

#define VT_CHECK(cond)                                                  \
	do {                                                            \
		if (!(cond))                                            \
			VT_FAIL_AT(__FILE__, __LINE__, "check failed: %s", #cond); \
	} while (0)

#define VT_EQ_INT(a, b)                                                       \
	do {                                                                  \
		long long vt_a = (long long)(a), vt_b = (long long)(b);       \
		if (vt_a != vt_b)                                             \
			VT_FAIL_AT(__FILE__, __LINE__, "%s == %lld, expected %lld", #a, \
				   vt_a, vt_b);                               \
	} while (0)

#define VT_EQ_STR(a, b)                                                        \
	do {                                                                   \
		const char *vt_a = (a), *vt_b = (b);                           \
		if (!vt_a || !vt_b || strcmp(vt_a, vt_b) != 0)                 \
			VT_FAIL_AT(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", \
				   #a, vt_a ? vt_a : "(null)", vt_b ? vt_b : "(null)"); \
	} while (0)

typedef void vt_fn(void);
struct vt_entry {
	const char *name;
	vt_fn *fn;
};

static inline int vt_run(const struct vt_entry *t, size_t n)
{
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		vt_current = t[i].name;
		vt_failed_checks = 0;
		t[i].fn();
		if (vt_failed_checks == 0)
			printf("ok %s\n", t[i].name);
		else
			bad = 1;
		fflush(stdout);
	}
	return bad;
}

#define VT_ENTRY(f) { #f, f }
#define VT_MAIN(...)                                                        \
	int main(void)                                                      \
	{                                                                   \
		static const struct vt_entry vt_all[] = { __VA_ARGS__ };    \
		return vt_run(vt_all, sizeof vt_all / sizeof vt_all[0]);    \
	}

#endif
