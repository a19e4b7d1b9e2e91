package main

// snapshot.go holds the commands that move and check snapshots: pack, unpack, verify, prune.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/crypto/ssh"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/sshsig"
)

func packCommand() *cli.Command {
	return &cli.Command{
		Name:  "pack",
		Usage: "write the snapshot as one compressed archive (for CI artifacts and air-gapped machines)",
		Description: `The archive is a tar stream, zstd-compressed (gzip when FILE ends in .gz or .tgz),
with manifest.json first: format version, docidx version, sources, counts and the sha256 of
every file. Packing the same snapshot twice gives the same bytes. Serve it directly with
'docidx serve --index FILE', or install it with 'docidx unpack FILE'.

With --sign KEY, FILE.sig holds an SSH signature of FILE (namespace "docidx"), which
'docidx verify --allowed-signers', 'unpack --allowed-signers', 'serve --require-signed' and
'ssh-keygen -Y verify -n docidx' check.`,
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the archive to `FILE` (- for stdout); required", EnvVars: []string{"DOCIDX_PACK_OUTPUT"}},
			&cli.StringFlag{Name: "sign", Usage: "sign the archive with the SSH private `KEY` (e.g. ~/.ssh/id_ed25519; a passphrase-protected key or KEY.pub through ssh-agent) into FILE.sig, as 'ssh-keygen -Y sign -n docidx' would"},
		},
		Action: runPack,
	}
}

func runPack(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("pack takes no arguments, got %q (the archive is -o FILE)", c.Args().First())
	}
	dir, out := c.String("index"), c.String("output")
	if out == "" {
		return usagef("pack: say where to write the archive: -o FILE (e.g. -o docidx.tar.zst)")
	}
	comp := index.CompressionFor(out)
	var signer ssh.Signer
	if key := c.String("sign"); key != "" {
		if out == "-" {
			return usagef("pack --sign writes FILE.sig beside the archive: give -o FILE, not -o -")
		}
		s, done, err := sshsig.LoadSigner(key, os.Getenv("SSH_AUTH_SOCK"))
		if err != nil {
			return failf("pack --sign: %v", err)
		}
		defer done()
		signer = s
	}
	if out == "-" {
		if _, err := index.Pack(c.App.Writer, dir, comp); err != nil {
			return packError(dir, err)
		}
		return nil
	}
	// Written beside the target and renamed into place: a failed pack leaves no half archive.
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return failf("pack: %v", err)
	}
	defer os.Remove(tmp.Name())
	m, err := index.Pack(tmp, dir, comp)
	if err == nil {
		err = tmp.Chmod(0o644) // an artifact to share, not a private temporary file
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return packError(dir, err)
	}
	var sig []byte
	if signer != nil {
		if sig, err = signFile(tmp.Name(), signer); err != nil {
			return failf("pack --sign: %v", err)
		}
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return failf("pack: %v", err)
	}
	// The signature of the archive this one replaces would no longer verify.
	if signer == nil {
		if err := os.Remove(signaturePath(out)); err == nil {
			fmt.Fprintf(c.App.ErrWriter, "removed %s: it signed the archive this pack replaced\n", signaturePath(out))
		}
	} else if err := writeFileAtomic(signaturePath(out), sig); err != nil {
		return failf("pack --sign: writing the signature: %v", err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		return failf("pack: %v", err)
	}
	var snapBytes int64
	if r, err := index.Open(dir); err == nil {
		snapBytes = r.Size()
		r.Close()
	}
	name := "zstd"
	if comp == index.Gzip {
		name = "gzip"
	}
	if c.Bool("json") {
		var sigFile, signedWith string
		if signer != nil {
			sigFile, signedWith = signaturePath(out), ssh.FingerprintSHA256(signer.PublicKey())
		}
		return writeJSON(c.App.Writer, packJSON{docidx.SchemaVersion, out, name, fi.Size(), snapBytes, len(m.Files) + 1, m.Format, sigFile, signedWith})
	}
	fmt.Fprintf(c.App.ErrWriter, "packed %s (%.1f MB) into %s (%.1f MB, %s, snapshot format %d)\n",
		count(len(m.Files)+1, "file", "files"), float64(snapBytes)/1e6, out, float64(fi.Size())/1e6, name, m.Format)
	if signer != nil {
		fmt.Fprintf(c.App.ErrWriter, "signed it into %s with %s key %s\n", signaturePath(out), signer.PublicKey().Type(), ssh.FingerprintSHA256(signer.PublicKey()))
	}
	return nil
}

// packJSON is pack's --json output: the archive written, its sizes in bytes, and its signature.
type packJSON struct {
	SchemaVersion int    `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	Archive       string `json:"archive"`
	Compression   string `json:"compression"` // zstd or gzip
	ArchiveBytes  int64  `json:"archiveBytes"`
	SnapshotBytes int64  `json:"snapshotBytes"`
	Files         int    `json:"files"`
	Format        int    `json:"format"`
	Signature     string `json:"signature,omitempty"`  // the signature file, FILE.sig
	SignedWith    string `json:"signedWith,omitempty"` // the key's SHA256 fingerprint
}

func packError(dir string, err error) error {
	switch {
	case errors.Is(err, docidx.ErrNoSnapshot):
		return failf("no snapshot in %s yet: run 'docidx crawl --index %s SPEC…' first", dir, dir)
	case errors.Is(err, index.ErrCorrupt):
		return failf("pack: %v\nthe snapshot does not match its manifest: run 'docidx verify --index %s' and crawl again", err, dir)
	}
	return failf("pack: %v", err)
}

func unpackCommand() *cli.Command {
	return &cli.Command{
		Name:      "unpack",
		Usage:     "install a snapshot archive into the index directory as its new current snapshot",
		ArgsUsage: "FILE",
		Description: `Every file is checked against the manifest's checksum while it is extracted; a damaged
archive, or one from a newer docidx, is refused and the current snapshot stays as it was.
Running servers switch to the new snapshot at their next check.

With --allowed-signers FILE, the archive is installed only if FILE.sig beside it is a good SSH
signature (namespace "docidx") by a key that FILE trusts; the check is made here, as the
archive enters the index, and is not recorded: see 'docidx serve --require-signed'.`,
		Flags: append([]cli.Flag{indexFlag, jsonFlag}, signingFlags("")...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("unpack: give one archive FILE, e.g. docidx unpack docidx.tar.zst")
			}
			allowed, err := allowedSigners(c)
			if err != nil {
				return err
			}
			path, dir := c.Args().First(), c.String("index")
			f, err := os.Open(path)
			if err != nil {
				return failf("unpack: %v", err)
			}
			defer f.Close()
			var signer *signedBy
			if allowed != "" {
				// The same open file is checked, then unpacked.
				if signer, err = checkArchiveSignature(path, f, allowed); err != nil {
					return failf("unpack: %v", err)
				}
				if _, err := f.Seek(0, io.SeekStart); err != nil {
					return failf("unpack: %v", err)
				}
			}
			m, err := index.Install(dir, f)
			if err != nil {
				return archiveError("unpack", path, err)
			}
			gen, _ := index.Current(dir)
			if c.Bool("json") {
				return writeJSON(c.App.Writer, unpackJSON{docidx.SchemaVersion, dir, gen, m.Counts, signer})
			}
			fmt.Fprintf(c.App.ErrWriter, "unpacked %s into %s (%s): %s\n", path, dir, gen, countsLine(m.Counts))
			if signer != nil {
				fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", path, signer)
			}
			return nil
		},
	}
}

// unpackJSON is unpack's --json output: the index and generation the archive was installed as,
// what it holds, and who signed it (with --allowed-signers).
type unpackJSON struct {
	SchemaVersion int                     `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	Index         string                  `json:"index"`
	Generation    string                  `json:"generation"`
	Counts        []index.EcosystemCounts `json:"counts"`
	Signature     *signedBy               `json:"signature,omitempty"`
}

// archiveError explains a failure to read an archive, or for verify a snapshot directory.
func archiveError(verb, path string, err error) error {
	// path is an index directory or an archive: a file, a FIFO or a device it was read from.
	switch {
	case errors.Is(err, docidx.ErrFormat):
		return failf("%s: %v", verb, err)
	case isDir(path) && errors.Is(err, index.ErrCorrupt):
		return failf("%s: %v\nthe snapshot in %s is damaged: crawl again, or 'docidx unpack' a good archive", verb, err, path)
	case errors.Is(err, index.ErrCorrupt), errors.Is(err, docidx.ErrTooLarge):
		return failf("%s: %v\n%s is damaged or not a docidx archive: nothing was used from it; pack it again", verb, err, path)
	}
	return failf("%s: %v", verb, err)
}

func countsLine(counts []index.EcosystemCounts) string {
	var parts []string
	for _, e := range counts {
		parts = append(parts, fmt.Sprintf("%s %s/%s", e.Ecosystem, count(e.Packages, "package", "packages"), count(e.Versions, "version", "versions")))
	}
	if len(parts) == 0 {
		return "empty"
	}
	return strings.Join(parts, ", ")
}

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check every checksum of the snapshot (or an archive) and open both stores",
		ArgsUsage: "[ARCHIVE|DIR]",
		Description: `Checks the current snapshot of --index (or the archive or directory given) against its
manifest: every file's sha256, no file missing or unlisted; then opens the bbolt store
(with bbolt's page-level consistency check) and both search indexes read-only.
Exit status 1 and the list of problems when anything is wrong.

With --allowed-signers FILE, an archive must also carry a good SSH signature in ARCHIVE.sig
(namespace "docidx", as 'docidx pack --sign' or 'ssh-keygen -Y sign -n docidx' writes it) by a
key that FILE trusts now; verify says who signed it.`,
		Flags: []cli.Flag{indexFlag, jsonFlag,
			&cli.StringFlag{Name: "allowed-signers", Usage: "also check the archive's SSH signature (ARCHIVE.sig) against the keys in this `FILE` (git's and ssh-keygen's allowed-signers format)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("verify: give at most one ARCHIVE or DIR")
			}
			path := c.String("index")
			if c.NArg() == 1 {
				path = c.Args().First()
			}
			if _, err := os.Stat(path); err != nil {
				return failf("verify: %v", err)
			}
			var signer *signedBy
			allowed := c.String("allowed-signers")
			if _, err := os.Stat(signaturePath(path)); err == nil && allowed == "" && index.IsArchive(path) {
				fmt.Fprintf(c.App.ErrWriter, "note: %s is not checked: give --allowed-signers FILE to check who signed %s\n", signaturePath(path), path)
			}
			if allowed != "" {
				if !index.IsArchive(path) {
					return failf("verify --allowed-signers: %s is not an archive; signatures are of archives (docidx pack --sign), an index directory keeps none: verify the archive it was unpacked from", path)
				}
				s, err := checkArchiveFile(path, allowed)
				if err != nil {
					if c.Bool("json") {
						writeJSON(c.App.Writer, verifyOutput(nil, nil, err))
					}
					return failf("verify: %v", err)
				}
				signer = s
			}
			v, err := index.Verify(c.Context, path, "")
			if err != nil {
				if errors.Is(err, docidx.ErrNoSnapshot) {
					return failf("no snapshot in %s yet: run 'docidx crawl --index %s SPEC…' first", path, path)
				}
				if c.Bool("json") && v != nil {
					writeJSON(c.App.Writer, verifyOutput(v, signer, err))
				}
				return archiveError("verify", path, err)
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, verifyOutput(v, signer, nil))
			}
			what := v.Snapshot
			if v.Archive != "" {
				what = v.Archive
			}
			// The manifest of an archive, and the principals of an allowed-signers line, are
			// someone else's text.
			match := "match their checksums"
			if v.Files == 1 {
				match = "matches its checksum"
			}
			out := fmt.Sprintf("ok  %s: snapshot format %d by docidx %s; %s (%.1f MB) %s; store.db: %s; search: %s\n",
				what, v.Manifest.Format, v.Manifest.DocidxVersion, count(v.Files, "file", "files"), float64(v.Bytes)/1e6, match,
				count(v.Versions, "package version", "package versions"), count(v.SearchDocs, "document", "documents"))
			if signer != nil {
				out += fmt.Sprintf("ok  %s: %s\n", what, signer)
			}
			return writeText(c.App.Writer, out)
		},
	}
}

// verifyJSON is verify's --json output, also when the check failed (ok false, error): what
// was checked (index.Verification, absent when the signature check failed first) and who
// signed the archive.
type verifyJSON struct {
	SchemaVersion int  `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	OK            bool `json:"ok"`
	*index.Verification
	Signature *signedBy `json:"signature,omitempty"`
	Error     string    `json:"error,omitempty"`
}

// verifyOutput is verify's --json output for a check that found v, signer and err.
func verifyOutput(v *index.Verification, signer *signedBy, err error) verifyJSON {
	out := verifyJSON{SchemaVersion: docidx.SchemaVersion, OK: err == nil, Verification: v, Signature: signer}
	if err != nil {
		out.Error = err.Error()
	}
	return out
}

func pruneCommand() *cli.Command {
	return &cli.Command{
		Name:      "prune",
		Usage:     "remove package versions from the snapshot",
		ArgsUsage: "[PACKAGE[@VERSION]...]  (e.g. npm:express, npm:express@4.18.2, pkg:golang/golang.org/x/sync@v0.9.0)",
		Description: `Writes a new generation without the selected package versions:
  docidx prune npm:left-pad            every version of a package
  docidx prune npm:express@4.18.2      one version
  docidx prune --keep-latest 2         all but the two newest versions of every package
  docidx prune --ecosystem npm --keep-latest 1
To drop everything a crawl's inputs no longer name, use 'docidx crawl --prune'.`,
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.IntFlag{Name: "keep-latest", Usage: "keep the `N` newest versions of each package in scope, remove older ones"},
			&cli.StringFlag{Name: "ecosystem", Aliases: []string{"e"}, Usage: "only this ecosystem (golang, npm, pypi, cargo, swift)"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "show what would be removed, change nothing"},
		},
		Action: runPrune,
	}
}

func runPrune(c *cli.Context) error {
	opts := index.PruneOptions{KeepLatest: c.Int("keep-latest"), DryRun: c.Bool("dry-run")}
	if opts.KeepLatest < 0 {
		return usagef("--keep-latest %d: want 1 or more", opts.KeepLatest)
	}
	if e := c.String("ecosystem"); e != "" {
		eco, err := docidx.ParseEcosystem(e)
		if err != nil {
			return usagef("--ecosystem: %v", err)
		}
		opts.Ecosystem = eco
	}
	for _, arg := range c.Args().Slice() {
		s, err := crawl.ParseSpec(arg)
		if err != nil {
			return usagef("%v", err)
		}
		opts.Packages = append(opts.Packages, docidx.Ref{Ecosystem: s.Ecosystem, Name: s.Name, Version: s.Query})
	}
	if len(opts.Packages) == 0 && opts.KeepLatest == 0 && opts.Ecosystem == "" {
		return usagef("prune: say what to remove: PACKAGE…, --keep-latest N or --ecosystem E")
	}
	dir := c.String("index")
	if _, err := index.Current(dir); errors.Is(err, docidx.ErrNoSnapshot) {
		return failf("no snapshot in %s yet: nothing to prune", dir)
	}
	w, err := index.CreateFor(dir, "prune")
	if err != nil {
		return failf("%v", err)
	}
	defer w.Abort() // no-op after Commit
	pruned, err := w.Prune(opts)
	if err != nil {
		return failf("prune: %v", err)
	}
	var m *index.Manifest
	if len(pruned) > 0 && !opts.DryRun {
		if m, err = w.Commit(c.Context); err != nil {
			return failf("writing snapshot: %v; the previous snapshot is unchanged", err)
		}
	}
	if pruned == nil {
		pruned = []docidx.Ref{}
	}
	if c.Bool("json") {
		out := pruneJSON{SchemaVersion: docidx.SchemaVersion, Pruned: pruned, DryRun: opts.DryRun}
		if m != nil {
			out.Counts = m.Counts
		}
		return writeJSON(c.App.Writer, out)
	}
	verb := "pruned"
	if opts.DryRun {
		verb = "would prune"
	}
	for _, ref := range pruned {
		writeText(c.App.Writer, fmt.Sprintf("%s  %s\n", verb, ref))
	}
	switch {
	case len(pruned) == 0:
		fmt.Fprintln(c.App.ErrWriter, "nothing to prune; the snapshot is unchanged")
	case m != nil:
		fmt.Fprintf(c.App.ErrWriter, "%s %s; snapshot now holds: %s\n", verb, count(len(pruned), "package version", "package versions"), countsLine(m.Counts))
	default:
		fmt.Fprintf(c.App.ErrWriter, "%s %s\n", verb, count(len(pruned), "package version", "package versions"))
	}
	return nil
}

// pruneJSON is prune's --json output: the package versions removed (or with --dry-run that would
// be), and what the snapshot holds after it (absent when nothing was written).
type pruneJSON struct {
	SchemaVersion int                     `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	Pruned        []docidx.Ref            `json:"pruned"`
	DryRun        bool                    `json:"dryRun"`
	Counts        []index.EcosystemCounts `json:"counts,omitempty"`
}

// pruneUnnamed removes from w every package version that the crawl sum did not name (indexed
// or unchanged), except versions of packages that failed this time: a registry that is down must
// not empty the snapshot. It returns what it removed.
func pruneUnnamed(w *index.Writer, sum *crawl.Summary) ([]docidx.Ref, error) {
	keep := map[docidx.Ref]bool{}
	failed := map[docidx.Ref]bool{} // by package, no version
	for _, r := range sum.Results {
		switch r.Status {
		case crawl.Indexed, crawl.Unchanged:
			keep[r.Ref] = true
		case crawl.Failed:
			failed[docidx.Ref{Ecosystem: r.Ref.Ecosystem, Name: r.Ref.Name}] = true
		}
	}
	refs, err := w.Refs()
	if err != nil {
		return nil, err
	}
	var pruned []docidx.Ref
	for _, ref := range refs {
		if keep[ref] || failed[docidx.Ref{Ecosystem: ref.Ecosystem, Name: ref.Name}] {
			continue
		}
		if err := w.Delete(ref); err != nil {
			return pruned, err
		}
		pruned = append(pruned, ref)
	}
	return pruned, nil
}
