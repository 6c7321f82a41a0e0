int flag;
int twice(int x) { return 2 * x; }
void set_flag(int v) { flag = v * 3; }
int table[4] = { 1, 20, 300, 4000 };
char greeting[] = "hello";
