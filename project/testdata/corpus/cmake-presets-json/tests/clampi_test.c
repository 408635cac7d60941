#include <stdio.h>
#include "clampi.h"

int main(void)
{
    int fails = 0;
    int cases[][4] = {{5, 0, 10, 5}, {-3, 0, 10, 0}, {12, 0, 10, 10}, {10, 0, 10, 10}};
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = clampi(cases[i][0], cases[i][1], cases[i][2]);
        if (got != cases[i][3]) {
            fprintf(stderr, "clampi(%d, %d, %d) = %d, want %d\n", cases[i][0], cases[i][1], cases[i][2], got, cases[i][3]);
            fails++;
        }
    }
    return fails != 0;
}
