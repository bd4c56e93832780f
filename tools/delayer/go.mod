module delayer

go 1.26.0

require golang.org/x/sys v0.20.0
