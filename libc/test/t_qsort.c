#include "pnl.h"
int test_qsort(long n) { (void)n; return 0; }
