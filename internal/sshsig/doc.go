// Package sshsig signs and verifies files in OpenSSH's SSHSIG format, the format of
// `ssh-keygen -Y sign` and of SSH-signed git commits
// (https://github.com/openssh/openssh-portable/blob/master/PROTOCOL.sshsig), and reads the
// allowed-signers files that `ssh-keygen -Y verify` and git's gpg.ssh.allowedSignersFile read
// (ssh-keygen(1), section ALLOWED SIGNERS).
//
// The cryptography is golang.org/x/crypto/ssh's: this package only builds and parses the
// envelope around it. Signatures it writes are the bytes ssh-keygen writes for the same key and
// file (for deterministic key types: Ed25519 and RSA); ssh-keygen verifies them, and it verifies
// ssh-keygen's. It does not verify SSH certificates, and refuses signatures made with one.
//
// It owns the SSHSIG envelope and the allowed-signers format; the cryptography stays in
// x/crypto. It imports the standard library and golang.org/x/crypto only: nothing of docidx,
// no network client (deps_test.go holds it to that).
package sshsig
