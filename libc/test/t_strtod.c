#include "pnl.h"
int test_strtod(long n) { (void)n; return 0; }
