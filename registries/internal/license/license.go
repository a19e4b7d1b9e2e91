// Package license guesses the SPDX identifier of a license text, for the package metadata that
// every registry shows. It imports only the standard library.
package license

import "strings"

// licenseRules map telltale phrases of common license texts to SPDX identifiers
// (https://spdx.org/licenses/). All phrases of a rule must appear; the first matching rule wins, so
// more specific texts come first. It is a guess for display, not a license scanner.
var licenseRules = []struct {
	spdx    string
	phrases []string
}{
	{"AGPL-3.0", []string{"gnu affero general public license", "version 3"}},
	{"LGPL-3.0", []string{"gnu lesser general public license", "version 3"}},
	{"LGPL-2.1", []string{"gnu lesser general public license", "version 2.1"}},
	{"LGPL-2.0", []string{"gnu library general public license"}},
	{"GPL-3.0", []string{"gnu general public license", "version 3"}},
	{"GPL-2.0", []string{"gnu general public license", "version 2"}},
	{"MPL-2.0", []string{"mozilla public license", "2.0"}},
	{"Apache-2.0", []string{"apache license", "version 2.0"}},
	{"Apache-2.0", []string{"licensed under the apache license, version 2.0"}},
	{"EPL-2.0", []string{"eclipse public license", "v 2.0"}},
	{"BSL-1.0", []string{"boost software license"}},
	{"CC0-1.0", []string{"cc0 1.0 universal"}},
	{"Unlicense", []string{"this is free and unencumbered software released into the public domain"}},
	{"ISC", []string{"permission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted", "provided that the above copyright notice and this permission notice appear in all copies"}},
	{"ISC", []string{"permission to use, copy, modify, and distribute this software for any purpose with or without fee is hereby granted", "provided that the above copyright notice and this permission notice appear in all copies"}},
	{"MIT", []string{"permission is hereby granted, free of charge, to any person obtaining a copy"}},
	{"BSD-3-Clause", []string{"redistribution and use in source and binary forms", "neither the name"}},
	{"BSD-3-Clause", []string{"redistribution and use in source and binary forms", "names of its contributors may be used to endorse"}},
	{"BSD-2-Clause", []string{"redistribution and use in source and binary forms"}},
	{"Zlib", []string{"this software is provided 'as-is', without any express or implied", "permission is granted to anyone to use this software for any purpose"}},
	{"WTFPL", []string{"do what the fuck you want to public license"}},
}

// Detect guesses the SPDX identifier (https://spdx.org/licenses/) of a LICENSE file's text, or
// returns "" when no rule matches. Case and line breaks are ignored.
func Detect(text string) string {
	norm := strings.ToLower(strings.Join(strings.Fields(text), " "))
	norm = strings.NewReplacer("\u201c", "\"", "\u201d", "\"", "\u2019", "'").Replace(norm)
	for _, r := range licenseRules {
		ok := true
		for _, p := range r.phrases {
			if !strings.Contains(norm, p) {
				ok = false
				break
			}
		}
		if ok {
			return r.spdx
		}
	}
	return ""
}
