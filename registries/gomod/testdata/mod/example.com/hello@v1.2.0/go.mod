module example.com/hello

go 1.21

retract v1.2.0 // Published by mistake.
