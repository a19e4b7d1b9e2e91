// Command ociimage builds docidx's container image from the linux binaries goreleaser left in
// dist/, without a container daemon and without pulling a base image, and writes it as an OCI
// image layout in a tar file (dist/docidx_VERSION_oci.tar) that `docker load`, `podman load` and
// `skopeo copy oci-archive:…` read. `ociimage inspect FILE` prints, per platform, the config
// fields `make release-check` checks.
//
// goreleaser's ko integration (and ko itself) would do the same, but both start from a base
// image fetched from a container registry, and a release must build offline from a clean clone.
// docidx is a static binary that needs no libc, CA certificates or shell, so the image is one
// layer on nothing: the binary, its LICENSE and NOTICE in /usr/share/doc/docidx, a passwd entry
// and home for the non-root user, and /tmp.
//
//	ociimage -dist dist -server packaging/server.json -license LICENSE -notice NOTICE
//	ociimage inspect dist/docidx_1.2.3_oci.tar
//
// The version and commit come from goreleaser's dist/metadata.json, and the server name label and
// the license (an SPDX identifier, the image's org.opencontainers.image.licenses label and
// annotation) from server.json, so the image, the archives and the registry entry cannot
// disagree.
package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// docDir is where the image carries docidx's LICENSE and NOTICE, as Debian-based images do.
const docDir = "usr/share/doc/docidx"

// The image's non-root user: 65532 is the "nonroot" user of distroless and Chainguard images, so
// volume permissions set up for those images work for this one.
const (
	uid  = 65532
	home = "/home/nonroot"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "inspect" {
		if len(os.Args) != 3 {
			fail(errors.New("usage: ociimage inspect FILE"))
		}
		fail(inspect(os.Args[2]))
		return
	}
	dist := flag.String("dist", "dist", "goreleaser's output `DIR`")
	server := flag.String("server", "packaging/server.json", "the MCP Registry entry `FILE`, for the server name label")
	repo := flag.String("repo", "ghcr.io/docidx/docidx", "the image `REPOSITORY` the tag names")
	licenseFile := flag.String("license", "LICENSE", "docidx's license text `FILE`, put in /"+docDir)
	noticeFile := flag.String("notice", "NOTICE", "docidx's NOTICE `FILE`, put in /"+docDir)
	flag.Parse()
	var meta struct{ Version, Commit string }
	var entry struct {
		Name string
		Meta struct {
			Publisher struct{ License string } `json:"io.modelcontextprotocol.registry/publisher-provided"`
		} `json:"_meta"`
	}
	fail(readJSON(filepath.Join(*dist, "metadata.json"), &meta))
	fail(readJSON(*server, &entry))
	if meta.Version == "" || entry.Name == "" {
		fail(errors.New("no version in metadata.json or no name in server.json"))
	}
	if entry.Meta.Publisher.License == "" {
		fail(fmt.Errorf("%s names no license (_meta[io.modelcontextprotocol.registry/publisher-provided].license)", *server))
	}
	docs := map[string][]byte{}
	for name, file := range map[string]string{"LICENSE": *licenseFile, "NOTICE": *noticeFile} {
		data, err := os.ReadFile(file)
		fail(err)
		docs[name] = data
	}
	out := filepath.Join(*dist, "docidx_"+meta.Version+"_oci.tar")
	fail(build(*dist, release{meta.Version, meta.Commit, entry.Name, entry.Meta.Publisher.License, docs}, *repo, out))
	fmt.Fprintln(os.Stderr, "ociimage: wrote", out)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "ociimage:", err)
		os.Exit(1)
	}
}

// release is what the image says about the release it carries.
type release struct {
	version, commit string
	name            string            // the MCP Registry server name
	license         string            // SPDX identifier
	docs            map[string][]byte // file name in docDir → contents
}

func build(dist string, rel release, repo, out string) error {
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, arch := range []string{"amd64", "arm64"} {
		matches, _ := filepath.Glob(filepath.Join(dist, "docidx_linux_"+arch+"*", "docidx"))
		if len(matches) != 1 {
			return fmt.Errorf("want one linux/%s binary in %s, found %d; run goreleaser first (make release)", arch, dist, len(matches))
		}
		img, err := image(matches[0], arch, rel)
		if err != nil {
			return fmt.Errorf("linux/%s: %w", arch, err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: arch}},
		})
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".oci-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	p, err := layout.Write(tmp, empty.Index)
	if err != nil {
		return err
	}
	ref := repo + ":" + rel.version
	if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": ref, // skopeo, podman
		"io.containerd.image.name":          ref, // docker load
		"org.opencontainers.image.licenses": rel.license,
	})); err != nil {
		return err
	}
	return tarDir(tmp, out)
}

// image is one platform's image: the binary at /usr/bin/docidx on an empty base.
func image(bin, arch string, rel release) (v1.Image, error) {
	fi, err := os.Stat(bin)
	if err != nil {
		return nil, err
	}
	// The binary's modification time is the commit's (goreleaser's mod_timestamp), so the same
	// commit gives the same image.
	created := fi.ModTime().UTC()
	data, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	layerTar, err := rootfs(data, rel.docs, created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img, err := mutate.Append(mutate.MediaType(empty.Image, types.OCIManifestSchema1), mutate.Addendum{
		Layer:     layer,
		History:   v1.History{Created: v1.Time{Time: created}, CreatedBy: "docidx tools/release/ociimage", Comment: "docidx " + rel.version},
		MediaType: types.OCILayer,
	})
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Created = "linux", arch, v1.Time{Time: created}
	cf.Config = v1.Config{
		// Streamable HTTP on every interface of the container, without sessions, so replicas
		// behind a load balancer are interchangeable; /healthz is the readiness probe.
		Entrypoint: []string{"/usr/bin/docidx", "serve", "--http", "0.0.0.0:8080", "--stateless"},
		Env: []string{
			"PATH=/usr/bin",
			"HOME=" + home,
			// The snapshot: mount an index directory here, or set DOCIDX_INDEX to a snapshot
			// archive (docidx pack) on a mounted volume; it is unpacked under $HOME/.cache.
			"DOCIDX_INDEX=/index",
		},
		User:         fmt.Sprintf("%d:%d", uid, uid),
		WorkingDir:   home,
		ExposedPorts: map[string]struct{}{"8080/tcp": {}},
		Volumes:      map[string]struct{}{"/index": {}},
		Labels: map[string]string{
			// The MCP Registry checks that an oci package's image carries its server name.
			"io.modelcontextprotocol.server.name":    rel.name,
			"org.opencontainers.image.title":         "docidx",
			"org.opencontainers.image.description":   "Offline package documentation for AI coding assistants, over MCP",
			"org.opencontainers.image.version":       rel.version,
			"org.opencontainers.image.revision":      rel.commit,
			"org.opencontainers.image.licenses":      rel.license,
			"org.opencontainers.image.source":        "https://github.com/docidx/docidx",
			"org.opencontainers.image.documentation": "https://github.com/docidx/docidx#docker",
		},
	}
	return mutate.ConfigFile(img, cf)
}

// rootfs is the image's only layer, as an uncompressed tar: the binary, the docs files (LICENSE
// and NOTICE) in docDir, /etc/passwd and /etc/group naming the non-root user (so os/user and
// tools that print the user work), its home, the /index mount point and a world-writable /tmp.
func rootfs(bin []byte, docs map[string][]byte, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(name string, mode int64, owner int) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: owner, Gid: owner, ModTime: mtime, Format: tar.FormatPAX})
	}
	file := func(name string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: mtime, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	steps := []func() error{
		func() error { return dir("etc", 0o755, 0) },
		func() error {
			return file("etc/passwd", 0o644, fmt.Appendf(nil, "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", uid, uid, home))
		},
		func() error { return file("etc/group", 0o644, fmt.Appendf(nil, "root:x:0:\nnonroot:x:%d:\n", uid)) },
		func() error { return dir("home", 0o755, 0) },
		func() error { return dir(strings.TrimPrefix(home, "/"), 0o700, uid) },
		func() error { return dir("index", 0o755, uid) },
		func() error { return dir("tmp", 0o1777, 0) },
		func() error { return dir("usr", 0o755, 0) },
		func() error { return dir("usr/bin", 0o755, 0) },
		func() error { return file("usr/bin/docidx", 0o755, bin) },
		func() error { return dir("usr/share", 0o755, 0) },
		func() error { return dir("usr/share/doc", 0o755, 0) },
		func() error { return dir(docDir, 0o755, 0) },
	}
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		steps = append(steps, func() error { return file(docDir+"/"+name, 0o644, docs[name]) })
	}
	steps = append(steps, tw.Close)
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// tarDir writes the directory dir as a tar file out, paths relative to dir, in a stable order.
func tarDir(dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(f)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if d.IsDir() {
			hdr.Name += "/"
		}
		hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(tw, src)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out)
	}
	return err
}

// inspect prints, for each platform of the OCI layout tar file, its entrypoint, user, exposed
// ports, labels, the image index's annotations and the SHA-256 (hex) of each regular file in its
// layers by path, as JSON lines.
func inspect(file string) error {
	tmp, err := os.MkdirTemp("", "ociimage-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := untar(file, tmp); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	p, err := layout.FromPath(tmp)
	if err != nil {
		return fmt.Errorf("%s is not an OCI layout: %w", file, err)
	}
	top, err := p.ImageIndex()
	if err != nil {
		return err
	}
	tm, err := top.IndexManifest()
	if err != nil {
		return err
	}
	if len(tm.Manifests) != 1 {
		return fmt.Errorf("%s: want one image index in index.json, found %d", file, len(tm.Manifests))
	}
	idx, err := top.ImageIndex(tm.Manifests[0].Digest)
	if err != nil {
		return err
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	for _, d := range im.Manifests {
		img, err := idx.Image(d.Digest)
		if err != nil {
			return err
		}
		cf, err := img.ConfigFile()
		if err != nil {
			return err
		}
		files, err := layerFiles(img)
		if err != nil {
			return fmt.Errorf("%s: %s/%s: %w", file, cf.OS, cf.Architecture, err)
		}
		if err := enc.Encode(map[string]any{
			"ref":         tm.Manifests[0].Annotations["org.opencontainers.image.ref.name"],
			"annotations": tm.Manifests[0].Annotations,
			"files":       files,
			"platform":    cf.OS + "/" + cf.Architecture,
			"entrypoint":  cf.Config.Entrypoint,
			"user":        cf.Config.User,
			"env":         cf.Config.Env,
			"ports":       cf.Config.ExposedPorts,
			"labels":      cf.Config.Labels,
		}); err != nil {
			return err
		}
	}
	return nil
}

// layerFiles maps the path of each regular file in img's layers to its SHA-256 in hex.
func layerFiles(img v1.Image) (map[string]string, error) {
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			return nil, err
		}
		tr := tar.NewReader(rc)
		for {
			hdr, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				rc.Close()
				return nil, err
			}
			if hdr.Typeflag != tar.TypeReg {
				continue
			}
			h := sha256.New()
			if _, err := io.Copy(h, tr); err != nil {
				rc.Close()
				return nil, err
			}
			files[hdr.Name] = hex.EncodeToString(h.Sum(nil))
		}
		if err := rc.Close(); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func untar(file, dir string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(hdr.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q leaves the layout", hdr.Name)
		}
		dst := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			w, err := os.Create(dst)
			if err != nil {
				return err
			}
			_, err = io.Copy(w, tr)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}
