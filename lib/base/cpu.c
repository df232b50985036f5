/*
 * base/cpu.c - what the machine offers to run work on: the number of online
 * processors, the default for every -j option and for whether an input's
 * gzip stream is worth a thread of its own.
 */
#include <unistd.h>

#include "base/vc_base.h"

int vc_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}
