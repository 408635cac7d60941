#include "tinyhex.h"

long hex_parse(const char *s) {
	long n = 0;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		n = n * 16 + d;
	}
	return n;
}

void hex_format(unsigned long n, char *buf) {
	char tmp[17];
	int i = 0;
	do {
		tmp[i++] = "0123456789abcdef"[n % 16];
		n /= 16;
	} while (n);
	while (i)
		*buf++ = tmp[--i];
	*buf = 0;
}
