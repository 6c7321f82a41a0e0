/* fannkuch-redux: the Computer Language Benchmarks Game's permutation benchmark.
 * Written for pnacl's tests. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 7;
    int perm[16], perm1[16], count[16];
    int max_flips = 0, checksum = 0, perm_count = 0;
    for (int i = 0; i < n; i++)
        perm1[i] = i;
    int r = n;
    for (;;) {
        while (r != 1) {
            count[r - 1] = r;
            r--;
        }
        int flips = 0;
        int first = perm1[0];
        if (first != 0) {
            for (int i = 1; i < n; i++)
                perm[i] = perm1[i];
            // Flipping the first first+1 elements puts `first` at its place and what was
            // there in front: only perm[1..first-1] needs reversing in memory; the front
            // element stays in a register.
            do {
                for (int *lo = perm + 1, *hi = perm + first - 1; lo < hi; lo++, hi--) {
                    int t = *lo;
                    *lo = *hi;
                    *hi = t;
                }
                int next = perm[first];
                perm[first] = first;
                first = next;
                flips++;
            } while (first != 0);
        }
        if (flips > max_flips)
            max_flips = flips;
        checksum += perm_count % 2 == 0 ? flips : -flips;
        for (;;) {
            if (r == n) {
                printf("%d\nPfannkuchen(%d) = %d\n", checksum, n, max_flips);
                return 0;
            }
            int perm0 = perm1[0];
            for (int i = 0; i < r; i++)
                perm1[i] = perm1[i + 1];
            perm1[r] = perm0;
            count[r]--;
            if (count[r] > 0)
                break;
            r++;
        }
        perm_count++;
    }
}
