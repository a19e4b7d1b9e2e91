package license

import "testing"

func TestDetect(t *testing.T) {
	tests := map[string]string{
		"MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software":                                                                                                                 "MIT",
		"                                 Apache License\n                           Version 2.0, January 2004":                                                                                                                         "Apache-2.0",
		"Copyright (c) 2009 The Go Authors.\n\nRedistribution and use in source and binary forms, with or without\nmodification, are permitted ...\n   * Neither the name of Google LLC nor the names of its\ncontributors may be used": "BSD-3-Clause",
		"Redistribution and use in source and binary forms, with or without modification, are permitted provided that the following conditions are met:\n1. ...\n2. ...":                                                                "BSD-2-Clause",
		"Permission to use, copy, modify, and/or distribute this software for any\npurpose with or without fee is hereby granted, provided that the above\ncopyright notice and this permission notice appear in all copies.":           "ISC",
		"Mozilla Public License Version 2.0\n==================================":                                                                                                                                                        "MPL-2.0",
		"                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007":                                                                                                                                "GPL-3.0",
		"This is free and unencumbered software released into the public domain.":                                                                                                                                                       "Unlicense",
		"All rights reserved. Ask us.": "",
	}
	for text, want := range tests {
		if got := Detect(text); got != want {
			t.Errorf("Detect(%.40q) = %q, want %q", text, got, want)
		}
	}
}
