#ifndef CLAMPI_H
#define CLAMPI_H

/* clampi is v limited to [lo, hi]. */
int clampi(int v, int lo, int hi);

#endif
