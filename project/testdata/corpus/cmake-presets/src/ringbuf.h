#ifndef RINGBUF_H
#define RINGBUF_H
#include <stddef.h>

struct ringbuf {
    int buf[8];
    size_t head, len;
};

void ringbuf_push(struct ringbuf *r, int v);
int ringbuf_pop(struct ringbuf *r, int *v);

#endif
