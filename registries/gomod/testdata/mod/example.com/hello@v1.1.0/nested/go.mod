module example.com/hello/nested

go 1.21
