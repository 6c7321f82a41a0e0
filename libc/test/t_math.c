#include "pnl.h"
int test_math(long n) { (void)n; return 0; }
