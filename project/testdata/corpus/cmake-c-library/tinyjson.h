#ifndef TINYJSON_H
#define TINYJSON_H

/* tj_parse_int reads the decimal integer at the start of s. */
int tj_parse_int(const char *s);

#endif
