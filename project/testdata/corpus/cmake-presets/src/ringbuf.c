#include "ringbuf.h"

void ringbuf_push(struct ringbuf *r, int v)
{
    r->buf[(r->head + r->len) % 8] = v;
    if (r->len < 8)
        r->len++;
    else
        r->head = (r->head + 1) % 8;
}

int ringbuf_pop(struct ringbuf *r, int *v)
{
    if (r->len == 0)
        return 0;
    *v = r->buf[r->head];
    r->head = (r->head + 1) % 8;
    r->len--;
    return 1;
}
