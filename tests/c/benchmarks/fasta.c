/* fasta: the Computer Language Benchmarks Game's sequence generator (linear congruential
 * random numbers, cumulative probabilities). Written for pnacl's tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IM 139968
#define IA 3877
#define IC 29573
#define WIDTH 60

static const char alu[] =
    "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG"
    "GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA"
    "CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT"
    "ACAAAAATTAGCCGGGCGTGGTGGCGCGCGCCTGTAATCCCA"
    "GCTACTCGGGAGGCTGAGGCAGGAGAATCGCTTGAACCCGGG"
    "AGGCGGAGGTTGCAGTGAGCCGAGATCGCGCCACTGCACTCC"
    "AGCCTGGGCGACAGAGCGAGACTCCGTCTCAAAAA";

struct aminoacid {
    char c;
    double p;
};

static struct aminoacid iub[] = {
    {'a', 0.27}, {'c', 0.12}, {'g', 0.12}, {'t', 0.27}, {'B', 0.02}, {'D', 0.02}, {'H', 0.02}, {'K', 0.02},
    {'M', 0.02}, {'N', 0.02}, {'R', 0.02}, {'S', 0.02}, {'V', 0.02}, {'W', 0.02}, {'Y', 0.02},
};

static struct aminoacid homosapiens[] = {
    {'a', 0.3029549426680}, {'c', 0.1979883004921}, {'g', 0.1975473066391}, {'t', 0.3015094502008},
};

static long last = 42;

static double gen_random(double max) {
    last = (last * IA + IC) % IM;
    // max / IM folds to a constant: one multiplication per number, not a division.
    return max / IM * last;
}

static void make_cumulative(struct aminoacid *table, int n) {
    double prob = 0.0;
    for (int i = 0; i < n; i++) {
        prob += table[i].p;
        table[i].p = prob;
    }
}

static void repeat_fasta(const char *s, long n) {
    char line[WIDTH + 1];
    size_t len = strlen(s);
    size_t pos = 0;
    while (n > 0) {
        int line_len = n < WIDTH ? (int)n : WIDTH;
        for (int i = 0; i < line_len; i++) {
            line[i] = s[pos++];
            if (pos == len)
                pos = 0;
        }
        line[line_len] = '\n';
        fwrite(line, 1, line_len + 1, stdout);
        n -= line_len;
    }
}

static void random_fasta(const struct aminoacid *table, int size, long n) {
    char line[WIDTH + 1];
    while (n > 0) {
        int line_len = n < WIDTH ? (int)n : WIDTH;
        for (int i = 0; i < line_len; i++) {
            double r = gen_random(1.0);
            // The table is cumulative, so the index is how many entries r reaches: counted
            // without a branch per entry.
            int k = 0;
            for (int j = 0; j < size - 1; j++)
                k += r >= table[j].p;
            line[i] = table[k].c;
        }
        line[line_len] = '\n';
        fwrite(line, 1, line_len + 1, stdout);
        n -= line_len;
    }
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000;
    make_cumulative(iub, sizeof iub / sizeof iub[0]);
    make_cumulative(homosapiens, sizeof homosapiens / sizeof homosapiens[0]);
    fputs(">ONE Homo sapiens alu\n", stdout);
    repeat_fasta(alu, n * 2);
    fputs(">TWO IUB ambiguity codes\n", stdout);
    random_fasta(iub, sizeof iub / sizeof iub[0], n * 3);
    fputs(">THREE Homo sapiens frequency\n", stdout);
    random_fasta(homosapiens, sizeof homosapiens / sizeof homosapiens[0], n * 5);
    return 0;
}
