package main

// sign.go signs archives and checks their signatures: SSH signatures (the SSHSIG format of
// `ssh-keygen -Y sign`) in ARCHIVE.sig, under the namespace "docidx", checked against an
// allowed-signers file as git and ssh-keygen read it. See internal/sshsig.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/crypto/ssh"

	"github.com/docidx/docidx/internal/sshsig"
)

// signatureNamespace is the SSHSIG namespace of archive signatures: a signature made for git
// ("git") or for files in general ("file") does not pass for one of an archive.
const signatureNamespace = "docidx"

// signaturePath is where the signature of the archive at path lives: beside it, as ssh-keygen
// -Y sign writes it.
func signaturePath(path string) string { return path + ".sig" }

// signedBy says who signed an archive: the line of the allowed-signers file that trusts its key.
type signedBy struct {
	Principals  string `json:"principals"`  // as the allowed-signers line writes them
	KeyType     string `json:"keyType"`     // e.g. ssh-ed25519
	Fingerprint string `json:"fingerprint"` // SHA256:… as ssh-keygen -l prints it
	Line        int    `json:"line"`        // of the allowed-signers file
	// ArchiveSHA256 is the hex sha256 of the archive bytes the signature was checked over:
	// what an archive's cache directory is named by (index.UnpackCached).
	ArchiveSHA256 string `json:"archiveSha256"`
}

func (s *signedBy) String() string {
	return fmt.Sprintf("signed by %s with %s key %s (allowed signers line %d)", s.Principals, s.KeyType, s.Fingerprint, s.Line)
}

// signingFlags returns the --allowed-signers and --require-signed flags of unpack and serve.
func signingFlags(envPrefix string) []cli.Flag {
	env := func(name string) []string {
		if envPrefix == "" {
			return nil
		}
		return []string{envPrefix + name}
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "allowed-signers", Usage: "trust archives signed (ARCHIVE.sig) by a key in this `FILE` (git's and ssh-keygen's allowed-signers format); implies --require-signed", EnvVars: env("ALLOWED_SIGNERS")},
		&cli.BoolFlag{Name: "require-signed", Usage: "refuse an archive without a good signature by a key in --allowed-signers", EnvVars: env("REQUIRE_SIGNED")},
	}
}

// allowedSigners returns the --allowed-signers file to check archives against, or "" when the
// command checks no signature. --require-signed without it is a usage error.
func allowedSigners(c *cli.Context) (string, error) {
	path := c.String("allowed-signers")
	if path == "" && c.Bool("require-signed") {
		return "", usagef("%s: --require-signed needs --allowed-signers FILE: the keys to trust, one 'principal keytype base64-key' per line", c.Command.Name)
	}
	return path, nil
}

// checkArchiveSignature is the one check of an archive's origin: the SSH signature at
// signaturePath(path) must verify over the archive's bytes, read from archive, under the
// namespace "docidx", by a key that the allowed-signers file at allowedPath lets sign that
// namespace now. Its errors say what is wrong and what to do.
func checkArchiveSignature(path string, archive io.Reader, allowedPath string) (*signedBy, error) {
	f, err := os.Open(allowedPath)
	if err != nil {
		return nil, fmt.Errorf("allowed signers: %v", err)
	}
	signers, err := sshsig.ParseAllowedSigners(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("allowed signers %s: %v", allowedPath, err)
	}
	sigPath := signaturePath(path)
	armored, err := readSignature(sigPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s is not signed (no %s): sign it where it was packed ('docidx pack --sign KEY', or 'ssh-keygen -Y sign -n %s -f KEY %s') and copy %s beside it",
			path, filepath.Base(sigPath), signatureNamespace, filepath.Base(path), filepath.Base(sigPath))
	}
	if err != nil {
		return nil, err
	}
	digest := sha256.New()
	s, err := sshsig.Check(armored, io.TeeReader(archive, digest), signatureNamespace, signers, time.Now())
	switch {
	case errors.Is(err, sshsig.ErrBadSignature):
		return nil, fmt.Errorf("%s: %v\nthe archive was changed after it was signed, or the signature is of something else: nothing was used from it; get the archive and its signature again from their source", sigPath, err)
	case errors.Is(err, sshsig.ErrNotAllowed):
		return nil, fmt.Errorf("%s: %v (allowed signers: %s)\nnothing was used from it; to trust this signer, list their public key in %s as 'PRINCIPAL KEYTYPE BASE64-KEY', with valid-after/valid-before dates that hold now", path, err, allowedPath, allowedPath)
	case err != nil:
		return nil, fmt.Errorf("%s: %v", sigPath, err)
	}
	return &signedBy{Principals: s.Principals, KeyType: s.Key.Type(), Fingerprint: ssh.FingerprintSHA256(s.Key), Line: s.Line,
		ArchiveSHA256: hex.EncodeToString(digest.Sum(nil))}, nil
}

// readSignature reads a signature file, refusing one larger than any SSH signature, and
// anything but a regular file (a FIFO beside an archive would block the open).
func readSignature(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s): not a signature", path, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, sshsig.MaxSignatureSize+1)) // Parse refuses the excess
}

// checkArchiveFile is checkArchiveSignature for the archive at path, read from the file.
func checkArchiveFile(path, allowedPath string) (*signedBy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return checkArchiveSignature(path, f, allowedPath)
}

// signFile returns the armored SSH signature of the file at path, namespace "docidx".
func signFile(path string, signer ssh.Signer) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sshsig.Sign(signer, f, signatureNamespace)
}

// writeFileAtomic writes data to path through a temporary file renamed into place.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
