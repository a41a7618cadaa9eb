/* The x86_64 test hooks (tests/firmware/faults.c) serve the hosted arch too. */
#include "../../../x86_64/include/arch/test.h"
