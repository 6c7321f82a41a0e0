#include "pnl.h"
int test_misc(long n) { (void)n; return 0; }
