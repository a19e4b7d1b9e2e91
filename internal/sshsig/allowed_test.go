package sshsig

import (
	"strings"
	"testing"
	"time"
)

// Real public keys (ssh-keygen -t ed25519, -t ecdsa, and a certificate of the first made
// with ssh-keygen -s), to build lines from.
const (
	edKey    = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFFrPbA7cpkj8308t/rksTvpFUgEo93AsF4s5KENTVdM"
	ecdsaKey = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBK2aGqFFrWkGzyQRoyo5siI2Gbcldz5exps7HSSrkrcvp1INaCo7/to85CbmI5J+OKkYzBFSGkZJuC1zetEWE2Q="
	certKey  = "ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZW5zc2guY29tAAAAIJZAB/YiYQ0wuU0logimNtucPe1p+Xqd4COb9+q2BopWAAAAIFFrPbA7cpkj8308t/rksTvpFUgEo93AsF4s5KENTVdMAAAAAAAAAAAAAAABAAAAAmlkAAAACQAAAAVhbGljZQAAAAAAAAAA//////////8AAAAAAAAAggAAABVwZXJtaXQtWDExLWZvcndhcmRpbmcAAAAAAAAAF3Blcm1pdC1hZ2VudC1mb3J3YXJkaW5nAAAAAAAAABZwZXJtaXQtcG9ydC1mb3J3YXJkaW5nAAAAAAAAAApwZXJtaXQtcHR5AAAAAAAAAA5wZXJtaXQtdXNlci1yYwAAAAAAAAAAAAAAMwAAAAtzc2gtZWQyNTUxOQAAACAvac6R/XlJe539Ug9GkJ4GoSVirkjVCWEfb1UXrsF1PwAAAFMAAAALc3NoLWVkMjU1MTkAAABAb7i8K8a/mFHTdaU048TvfOSMWWU1sJcAHFa3AxVzlv7pgbdXtAE2E0zk8GzZP8E7e0GfKYgC41T0V4nKoZkICA=="
)

func TestParseAllowedSigners(t *testing.T) {
	utc := func(s string) time.Time { t, _ := time.Parse("20060102150405", s); return t }
	for _, tc := range []struct {
		name string
		in   string
		want []AllowedSigner // Key is checked by type only
		err  string
	}{
		{name: "plain", in: "alice@example.com " + edKey,
			want: []AllowedSigner{{Line: 1, Principals: "alice@example.com"}}},
		{name: "comment and blanks", in: "# team\n\n   \n  alice,bob " + edKey + " alice's laptop\n",
			want: []AllowedSigner{{Line: 4, Principals: "alice,bob"}}},
		{name: "quoted principals", in: `"alice smith,bob" ` + ecdsaKey,
			want: []AllowedSigner{{Line: 1, Principals: "alice smith,bob"}}},
		{name: "options", in: `*@example.com namespaces="docidx,git",valid-after="20250101Z",VALID-BEFORE="20270102030405Z" ` + edKey,
			want: []AllowedSigner{{Line: 1, Principals: "*@example.com", Namespaces: "docidx,git",
				ValidAfter: utc("20250101000000"), ValidBefore: utc("20270102030405")}}},
		{name: "quoted space and escape", in: `a namespaces="do c,x\"y" ` + edKey,
			want: []AllowedSigner{{Line: 1, Principals: "a", Namespaces: `do c,x"y`}}},
		{name: "cert-authority", in: "ca@example.com cert-authority " + edKey,
			want: []AllowedSigner{{Line: 1, Principals: "ca@example.com", CertAuthority: true}}},
		{name: "two lines", in: "a " + edKey + "\nb " + ecdsaKey,
			want: []AllowedSigner{{Line: 1, Principals: "a"}, {Line: 2, Principals: "b"}}},
		{name: "CRLF", in: "a " + edKey + "\r\n",
			want: []AllowedSigner{{Line: 1, Principals: "a"}}},

		{name: "principals only", in: "alice", err: "line 1: only principals, no key"},
		{name: "no key", in: "alice ssh-ed25519", err: "line 1: no key"},
		{name: "bad base64", in: "alice ssh-ed25519 !!!!", err: "ssh-ed25519 key: bad base64"},
		{name: "type mismatch", in: "alice ssh-rsa " + strings.Fields(edKey)[1], err: "the key says it is ssh-ed25519, the line says ssh-rsa"},
		{name: "unknown option", in: "alice verify-required " + edKey, err: `unsupported option "verify-required"`},
		{name: "unquoted value", in: "alice namespaces=docidx " + edKey, err: "must be in double quotes"},
		{name: "unclosed quote", in: `alice namespaces="docidx ` + edKey, err: "quote is not closed"},
		{name: "unclosed principals", in: `"alice ` + edKey, err: "principals' quote is not closed"},
		{name: "duplicate option", in: `alice namespaces="a",namespaces="b" ` + edKey, err: "option namespaces given twice"},
		{name: "empty namespaces", in: `alice namespaces="" ` + edKey, err: "allows no namespace"},
		{name: "bad time", in: `alice valid-before="2026-01-01" ` + edKey, err: "want YYYYMMDD"},
		{name: "impossible date", in: `alice valid-before="20261341Z" ` + edKey, err: "month out of range"},
		{name: "before after", in: `alice valid-after="20270101Z",valid-before="20260101Z" ` + edKey, err: "valid-before is not after valid-after"},
		{name: "trailing comma", in: `alice namespaces="a", ` + edKey, err: `unexpected ","`},
		{name: "options without key", in: `alice namespaces="a"`, err: "no key after the options"},
		{name: "options then nothing", in: `alice namespaces="a"  `, err: "no key after the options"},
		{name: "certificate key", in: "alice " + certKey, err: "certificate"},
		{name: "flag with value", in: `alice cert-authority="x" ` + edKey, err: "takes no value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAllowedSigners(strings.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d signers, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Key == nil {
					t.Fatalf("signer %d has no key", i)
				}
				g.Key = nil
				if !g.ValidAfter.Equal(w.ValidAfter) || !g.ValidBefore.Equal(w.ValidBefore) {
					t.Errorf("signer %d: valid %v..%v, want %v..%v", i, g.ValidAfter, g.ValidBefore, w.ValidAfter, w.ValidBefore)
				}
				g.ValidAfter, g.ValidBefore, w.ValidAfter, w.ValidBefore = time.Time{}, time.Time{}, time.Time{}, time.Time{}
				if g != w {
					t.Errorf("signer %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestParseTimeLocal(t *testing.T) {
	got, err := parseTime("202601021504")
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 1, 2, 15, 4, 0, 0, time.Local); !got.Equal(want) {
		t.Errorf("parseTime = %v, want %v (local time, as ssh-keygen reads a time without Z)", got, want)
	}
}

func TestMatchPatternList(t *testing.T) {
	for _, tc := range []struct {
		s, list string
		want    bool
	}{
		{"docidx", "docidx", true},
		{"docidx", "git,docidx", true},
		{"docidx", "doc*", true},
		{"docidx", "d?cidx", true},
		{"docidx", "*", true},
		{"docidx", "*,!docidx", false},
		{"docidx", "!git", false}, // a negation alone matches nothing
		{"docidx", "docid", false},
		{"docidx", "Docidx", false},
		{"", "*", true},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "*a*a*a*a*a*a*a*a*a*a*c", false},
	} {
		if got := matchPatternList(tc.s, tc.list); got != tc.want {
			t.Errorf("matchPatternList(%q, %q) = %v, want %v", tc.s, tc.list, got, tc.want)
		}
	}
}

// FuzzParseAllowedSigners: any input parses or fails without panicking, and every signer it
// returns has principals and a plain key.
func FuzzParseAllowedSigners(f *testing.F) {
	for _, s := range []string{
		"alice@example.com " + edKey,
		`"a b" namespaces="docidx",valid-after="20250101",valid-before="20270101Z" ` + ecdsaKey + " c",
		"ca cert-authority " + edKey,
		`x namespaces="a\"b c" ` + edKey,
		"# comment\n\n",
		"alice " + certKey,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ParseAllowedSigners(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, s := range got {
			if s.Principals == "" || s.Key == nil || s.Line < 1 {
				t.Fatalf("signer %+v from %q", s, in)
			}
			if !s.ValidAfter.IsZero() && !s.ValidBefore.IsZero() && !s.ValidBefore.After(s.ValidAfter) {
				t.Fatalf("validity %v..%v from %q", s.ValidAfter, s.ValidBefore, in)
			}
		}
	})
}
