#include <stdio.h>
#include "tinyjson.h"

int main(int argc, char **argv)
{
    if (argc > 1)
        printf("%d\n", tj_parse_int(argv[1]));
    return 0;
}
