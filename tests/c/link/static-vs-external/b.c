int shared_count = 5;
int helper(void) { return 2 + shared_count; }
