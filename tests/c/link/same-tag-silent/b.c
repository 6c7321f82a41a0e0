struct Rec { double weight; long long id; };

__attribute__((noinline)) static int stride(struct Rec *p) { return (int)((char *)&p[1] - (char *)&p[0]); }

__attribute__((noinline)) static long long fill(struct Rec *r, int n) {
    long long s = 0;
    for (int i = 0; i < n; i++) {
        r[i].weight = i + 0.5;
        r[i].id = 1000000000000LL + i;
    }
    for (int i = 0; i < n; i++) s = s * 3 + r[i].id + (long long)(r[i].weight * 4);
    return s;
}

int b_main(int n) {
    struct Rec recs[8];
    return (int)(fill(recs, n) % 1000003) + stride(recs);
}
