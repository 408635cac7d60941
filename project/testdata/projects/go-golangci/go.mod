module example.com/flag

go 1.22
