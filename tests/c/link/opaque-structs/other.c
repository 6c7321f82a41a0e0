struct Counter { short hits; short misses; };

static struct Counter mine = { 5, 6 };

long other_counter(void) {
    mine.hits += 10;
    return mine.hits * 100 + mine.misses;
}
