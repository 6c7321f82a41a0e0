int helper(void);
extern int shared_count;
int call_helper(void) { return helper() * 10; }
int read_count(void) { return ++shared_count; }
