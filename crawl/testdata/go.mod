module example.com/app

go 1.22

require (
	github.com/spf13/cobra v1.8.0
	golang.org/x/sync v0.7.0 // indirect
	github.com/old/thing v1.0.0
	example.com/local v0.0.0
	github.com/Masterminds/semver/v3 v3.2.1
)

require github.com/spf13/pflag v1.0.5 // indirect

replace github.com/old/thing => github.com/new/thing v1.2.0

replace example.com/local => ../local
