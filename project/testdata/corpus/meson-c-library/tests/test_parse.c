#include <stdio.h>
#include "tinyhex.h"

int main(void) {
	if (hex_parse("ff") != 255 || hex_parse("1A") != 26 || hex_parse("x") != -1) {
		printf("hex_parse(\"ff\") = %ld, hex_parse(\"1A\") = %ld\n", hex_parse("ff"), hex_parse("1A"));
		return 1;
	}
	return 0;
}
