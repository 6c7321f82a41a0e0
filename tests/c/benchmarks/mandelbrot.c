/* mandelbrot: the Computer Language Benchmarks Game's Mandelbrot set as a P4 bitmap.
 * Written for pnacl's tests. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int w = argc > 1 ? atoi(argv[1]) : 200;
    int h = w;
    printf("P4\n%d %d\n", w, h);
    int bit = 0, byte = 0;
    for (int y = 0; y < h; y++) {
        double ci = 2.0 * y / h - 1.0;
        for (int x = 0; x < w; x++) {
            double cr = 2.0 * x / w - 1.5;
            double zr = 0.0, zi = 0.0, tr = 0.0, ti = 0.0;
            int i;
            for (i = 0; i < 50 && tr + ti <= 4.0; i++) {
                // zr + zr is exactly 2.0 * zr (doubling is exact), one multiplication less.
                zi = (zr + zr) * zi + ci;
                zr = tr - ti + cr;
                tr = zr * zr;
                ti = zi * zi;
            }
            byte = (byte << 1) | (tr + ti <= 4.0);
            if (++bit == 8) {
                putchar(byte);
                bit = 0;
                byte = 0;
            }
        }
        if (bit != 0) {
            putchar(byte << (8 - bit));
            bit = 0;
            byte = 0;
        }
    }
    return 0;
}
