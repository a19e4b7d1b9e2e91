package sshsig

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// MaxSignatureSize is the largest armored signature Parse reads (bytes). An RSA-16384
// signature is under 6 KiB.
const MaxSignatureSize = 64 << 10

// ErrBadSignature is returned when a signature does not verify: the message is not the one
// signed, or the signature's namespace is not the one asked for.
var ErrBadSignature = errors.New("signature does not verify")

const (
	magic      = "SSHSIG"
	version    = 1
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
	armorWidth = 70 // base64 characters per line, as ssh-keygen writes them
)

// blob is a signature in wire form after the magic preamble (PROTOCOL.sshsig, "Blob format").
type blob struct {
	Version       uint32
	PublicKey     []byte
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Signature     []byte
}

// signedData is what the key signs after the magic preamble (PROTOCOL.sshsig, "Signed Data").
type signedData struct {
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Hash          []byte
}

// Signature is a parsed SSHSIG signature.
type Signature struct {
	PublicKey     ssh.PublicKey // the key that made it; never a certificate
	Namespace     string        // what the signature is for, e.g. "git" or "file"
	HashAlgorithm string        // "sha256" or "sha512": what hashed the message
	sig           *ssh.Signature
}

func newHash(alg string) (hash.Hash, error) {
	switch alg {
	case "sha512":
		return sha512.New(), nil
	case "sha256":
		return sha256.New(), nil
	}
	return nil, fmt.Errorf("unsupported hash algorithm %q (want sha256 or sha512)", alg)
}

// toSign returns the bytes a key signs for message under namespace with the hash alg.
func toSign(message io.Reader, namespace, alg string) ([]byte, error) {
	h, err := newHash(alg)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(h, message); err != nil {
		return nil, fmt.Errorf("reading the message: %w", err)
	}
	return append([]byte(magic), ssh.Marshal(signedData{Namespace: namespace, HashAlgorithm: alg, Hash: h.Sum(nil)})...), nil
}

// Sign signs the message read from r under namespace, hashing it with SHA-512 as ssh-keygen
// does by default, and returns the armored signature ("-----BEGIN SSH SIGNATURE-----"), as
// `ssh-keygen -Y sign -n NAMESPACE` writes it. RSA keys sign with rsa-sha2-512; Ed25519 and
// ECDSA keys with their own algorithm.
func Sign(signer ssh.Signer, r io.Reader, namespace string) ([]byte, error) {
	if namespace == "" {
		return nil, errors.New("a signature needs a namespace")
	}
	data, err := toSign(r, namespace, "sha512")
	if err != nil {
		return nil, err
	}
	pub := signer.PublicKey()
	var sig *ssh.Signature
	switch pub.Type() {
	case ssh.KeyAlgoRSA:
		as, ok := signer.(ssh.AlgorithmSigner)
		if !ok {
			return nil, errors.New("this RSA signer cannot sign with rsa-sha2-512")
		}
		sig, err = as.SignWithAlgorithm(rand.Reader, data, ssh.KeyAlgoRSASHA512)
	case ssh.KeyAlgoED25519, ssh.KeyAlgoECDSA256, ssh.KeyAlgoECDSA384, ssh.KeyAlgoECDSA521,
		ssh.KeyAlgoSKED25519, ssh.KeyAlgoSKECDSA256:
		sig, err = signer.Sign(rand.Reader, data)
	default:
		return nil, fmt.Errorf("cannot sign with a %s key: use an ed25519, ecdsa or rsa key", pub.Type())
	}
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	wire := append([]byte(magic), ssh.Marshal(blob{
		Version:       version,
		PublicKey:     pub.Marshal(),
		Namespace:     namespace,
		HashAlgorithm: "sha512",
		Signature:     ssh.Marshal(sig),
	})...)
	return armor(wire), nil
}

func armor(wire []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(wire)
	var b bytes.Buffer
	b.WriteString(armorBegin + "\n")
	for len(enc) > armorWidth {
		b.WriteString(enc[:armorWidth] + "\n")
		enc = enc[armorWidth:]
	}
	b.WriteString(enc + "\n" + armorEnd + "\n")
	return b.Bytes()
}

// Parse parses an armored signature, as ssh-keygen -Y sign writes it. It checks the envelope
// (magic, version 1, a known hash algorithm, a signature algorithm that fits the key: RSA keys
// only with rsa-sha2-256 or rsa-sha2-512), not the signature itself: see Verify. A signature
// made with an SSH certificate is refused.
func Parse(armored []byte) (*Signature, error) {
	if len(armored) > MaxSignatureSize {
		return nil, fmt.Errorf("signature of %d bytes (limit %d): not an SSH signature", len(armored), MaxSignatureSize)
	}
	text := strings.TrimSpace(string(armored))
	body, ok := strings.CutPrefix(text, armorBegin)
	if !ok {
		return nil, errors.New("not an SSH signature (no " + armorBegin + " line)")
	}
	body, ok = strings.CutSuffix(body, armorEnd)
	if !ok {
		return nil, errors.New("SSH signature without its " + armorEnd + " line")
	}
	wire, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
	if err != nil {
		return nil, fmt.Errorf("SSH signature: bad base64: %v", err)
	}
	rest, ok := bytes.CutPrefix(wire, []byte(magic))
	if !ok {
		return nil, errors.New("SSH signature without the SSHSIG preamble")
	}
	var b blob
	if err := ssh.Unmarshal(rest, &b); err != nil {
		return nil, fmt.Errorf("malformed SSH signature: %v", err)
	}
	if b.Version != version {
		return nil, fmt.Errorf("SSH signature version %d (this docidx reads version %d)", b.Version, version)
	}
	if _, err := newHash(b.HashAlgorithm); err != nil {
		return nil, err
	}
	pub, err := ssh.ParsePublicKey(b.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("the signature's public key: %v", err)
	}
	if _, ok := pub.(*ssh.Certificate); ok {
		return nil, fmt.Errorf("signed with an SSH certificate (%s), which docidx does not verify: sign with the plain key and list it in the allowed signers", pub.Type())
	}
	sig := new(ssh.Signature)
	if err := ssh.Unmarshal(b.Signature, sig); err != nil {
		return nil, fmt.Errorf("malformed signature: %v", err)
	}
	if pub.Type() == ssh.KeyAlgoRSA && sig.Format != ssh.KeyAlgoRSASHA256 && sig.Format != ssh.KeyAlgoRSASHA512 {
		return nil, fmt.Errorf("RSA signature with %s (SHA-1); only rsa-sha2-256 and rsa-sha2-512 are accepted", sig.Format)
	}
	return &Signature{PublicKey: pub, Namespace: b.Namespace, HashAlgorithm: b.HashAlgorithm, sig: sig}, nil
}

// Verify checks that s is a signature by s.PublicKey of the message read from r under
// namespace. The error wraps ErrBadSignature when the signature does not match (another
// message, another namespace); it does not say whether the key is trusted: see
// AllowedSigners.Find.
func (s *Signature) Verify(r io.Reader, namespace string) error {
	if s.Namespace != namespace {
		return fmt.Errorf("%w: it was made for namespace %q, not %q", ErrBadSignature, s.Namespace, namespace)
	}
	data, err := toSign(r, namespace, s.HashAlgorithm)
	if err != nil {
		return err
	}
	if err := s.PublicKey.Verify(data, s.sig); err != nil {
		return fmt.Errorf("%w: the signed bytes are not these (%v)", ErrBadSignature, err)
	}
	return nil
}

// Check is the whole verification of a signed message: it parses the armored signature,
// verifies it over the message read from r under namespace, and finds the line of signers that
// lets its key sign in namespace at time at. It returns that line. Errors wrap ErrBadSignature
// (not a signature of this message in this namespace) or ErrNotAllowed (a good signature by a
// key the signers do not trust at that time), or say why the signature does not parse.
func Check(armored []byte, r io.Reader, namespace string, signers AllowedSigners, at time.Time) (*AllowedSigner, error) {
	sig, err := Parse(armored)
	if err != nil {
		return nil, err
	}
	if err := sig.Verify(r, namespace); err != nil {
		return nil, err
	}
	return signers.Find(sig.PublicKey, namespace, at)
}
