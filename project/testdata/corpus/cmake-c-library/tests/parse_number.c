#include <stdio.h>
#include "tinyjson.h"

static int failures;

static void expect(const char *in, int want)
{
    int got = tj_parse_int(in);
    if (got != want) {
        fprintf(stderr, "tj_parse_int(\"%s\") = %d, want %d\n", in, got, want);
        failures++;
    }
}

int main(void)
{
    expect("0", 0);
    expect("42", 42);
    expect("-17", -17);
    expect("12abc", 12);
    return failures != 0;
}
