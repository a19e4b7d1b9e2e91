module github.com/Azure/go-sample

go 1.21
