/* The AArch64 test hooks (tests/firmware/faults.c) serve the hosted arch too. */
#include "../../../aarch64/include/arch/test.h"
