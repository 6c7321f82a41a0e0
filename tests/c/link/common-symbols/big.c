int buf[16];
int aligned_common;
long long counter;

void big_fill(void) {
    for (int i = 1; i < 16; i++) buf[i] = buf[i - 1] * 2 + i;
    counter += 1;
}

int big_read(int i) { return buf[i]; }
