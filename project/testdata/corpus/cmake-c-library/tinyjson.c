#include "tinyjson.h"

int tj_parse_int(const char *s)
{
    int sign = 1, n = 0;
    if (*s == '-') {
        sign = -1;
        s++;
    }
    while (*s >= '0' && *s <= '9') {
        n = n * 10 + (*s - '0');
        s++;
    }
    return sign * n;
}
