#include <stdio.h>
#include "ringbuf.h"

int main(void)
{
    struct ringbuf r = {0};
    int v, fails = 0;
    for (int i = 0; i < 10; i++)
        ringbuf_push(&r, i);
    for (int want = 2; want < 10; want++) {
        if (!ringbuf_pop(&r, &v) || v != want) {
            fprintf(stderr, "pop: got %d, want %d\n", v, want);
            fails++;
        }
    }
    if (ringbuf_pop(&r, &v)) {
        fprintf(stderr, "pop of an empty ring returned %d\n", v);
        fails++;
    }
    return fails != 0;
}
