#include "pnl.h"
int test_malloc(long n) { (void)n; return 0; }
