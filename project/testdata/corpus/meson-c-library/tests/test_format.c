#include <stdio.h>
#include <string.h>
#include "tinyhex.h"

int main(void) {
	char buf[17];
	hex_format(48879, buf);
	if (strcmp(buf, "beef") != 0) {
		printf("hex_format(48879) = %s\n", buf);
		return 1;
	}
	return 0;
}
