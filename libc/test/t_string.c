#include "pnl.h"
int test_string(long n) { (void)n; return 0; }
