package crawl

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docidx/docidx"
)

// packageResolved is SwiftPM's Package.resolved, versions 1 to 3 (swiftlang/swift-package-manager
// Sources/PackageGraph/PinsStore.swift): version 1 nests the pins under "object" and names them by
// "package" and "repositoryURL"; versions 2 and 3 list them at the top with "identity", "kind" and
// "location" (3 adds "originHash").
type packageResolved struct {
	Version *int `json:"version"`
	Object  *struct {
		Pins []resolvedPin `json:"pins"`
	} `json:"object"`
	Pins []resolvedPin `json:"pins"`
}

type resolvedPin struct {
	Package       string `json:"package"`       // v1
	RepositoryURL string `json:"repositoryURL"` // v1
	Identity      string `json:"identity"`      // v2, v3
	Kind          string `json:"kind"`          // v2, v3: remoteSourceControl, localSourceControl, registry
	Location      string `json:"location"`      // v2, v3
	State         struct {
		Branch   *string `json:"branch"`
		Revision string  `json:"revision"`
		Version  *string `json:"version"`
	} `json:"state"`
}

// parsePackageResolved keeps pins to a version. A spec's name is what SwiftPM resolved the package
// from: the identity ("scope.name") of a registry pin, and the repository URL as written for a
// source-control pin (v1 pins are all source control). Pins to a branch or a revision only, and
// local repositories, are skipped.
func parsePackageResolved(st *lockState, name string, data []byte) error {
	var res packageResolved
	if err := json.Unmarshal(data, &res); err != nil {
		return jsonErr(name, data, err)
	}
	if res.Version == nil {
		return lockErr(name, 0, "no \"version\": not a Package.resolved")
	}
	st.lf.Version = strconv.Itoa(*res.Version)
	pins := res.Pins
	if res.Object != nil {
		pins = append(res.Object.Pins, pins...)
	}
	for i, p := range pins {
		kind, id, loc := p.Kind, p.Identity, p.Location
		if id == "" && loc == "" { // v1
			kind, id, loc = "remoteSourceControl", p.Package, p.RepositoryURL
		}
		entry := id
		if entry == "" {
			entry = loc
		}
		if entry == "" {
			return lockErr(name, 0, "pin #%d has no identity or location", i+1)
		}
		var pkg string
		switch kind {
		case "registry":
			pkg = id
		case "remoteSourceControl", "":
			pkg = loc
		case "localSourceControl":
			st.skip(name, 0, entry, "local repository "+loc)
			continue
		default:
			st.skip(name, 0, entry, "unknown pin kind "+strconv.Quote(kind))
			continue
		}
		if pkg == "" {
			st.skip(name, 0, entry, kind+" pin without a location")
			continue
		}
		v := ""
		if p.State.Version != nil {
			v = strings.TrimSpace(*p.State.Version)
		}
		if v == "" {
			why := "pinned to revision " + short(p.State.Revision) + ", not a version"
			if p.State.Branch != nil && *p.State.Branch != "" {
				why = "pinned to branch " + *p.State.Branch + " (revision " + short(p.State.Revision) + "), not a version"
			}
			st.skip(name, 0, entry, why)
			continue
		}
		st.add(name, docidx.Swift, pkg, v)
	}
	return nil
}

// short abbreviates a git revision as git does.
func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	if rev == "" {
		return "(none)"
	}
	return rev
}
