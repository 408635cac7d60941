#ifndef TINYHEX_H
#define TINYHEX_H
/* hex_parse reads a hexadecimal number; -1 when s holds another character. */
long hex_parse(const char *s);
/* hex_format writes n in hexadecimal into buf (at least 17 bytes). */
void hex_format(unsigned long n, char *buf);
#endif
