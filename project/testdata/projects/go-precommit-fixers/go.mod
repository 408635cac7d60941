module example.com/y

go 1.22
