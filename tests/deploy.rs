//! What can be checked of the container files without a container engine (none runs where the
//! tests run): every file the image copies exists after `make setup`, every variable it sets is
//! one the service reads, and the compose file's proxy config is the one in the repository.

mod common;

use common::repo_path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_image_copies_files_that_exist_and_sets_variables_the_service_reads() {
    let dockerfile = read("Dockerfile");
    // The flags' three homes: the shared configuration and the search's and answer's settings.
    let config = [
        "src/config.rs",
        "src/search/settings.rs",
        "src/answer/settings.rs",
    ]
    .map(read)
    .concat();
    let mut copied = 0;
    for line in dockerfile.lines() {
        let Some(rest) = line.trim().strip_prefix("COPY --from=build ") else {
            continue;
        };
        let parts: Vec<&str> = rest.split_whitespace().collect();
        for src in &parts[..parts.len() - 1] {
            let rel = src
                .strip_prefix("/src/")
                .expect("copies from the build tree");
            if rel.starts_with("target/") {
                continue; // built by the image's own cargo build
            }
            assert!(
                repo_path(rel).exists(),
                "the image copies {rel}, which setup does not make"
            );
            copied += 1;
        }
    }
    assert!(copied >= 3, "{copied} files checked");
    let vars: Vec<&str> = dockerfile
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("NYAYA_"))
        .collect();
    assert!(vars.len() >= 5, "{vars:?}");
    for v in vars {
        let read_by_config = config.contains(&format!("env = \"{v}\""));
        let read_elsewhere = v == "NYAYA_LOG";
        assert!(
            read_by_config || read_elsewhere,
            "the image sets {v}, which nothing reads"
        );
    }
    assert!(dockerfile.contains(r#"CMD ["nyaya", "serve", "--addr", "0.0.0.0:8080"]"#));
}

#[test]
fn compose_runs_two_replicas_behind_the_repositorys_proxy_config() {
    let compose = read("docker-compose.yml");
    assert!(compose.contains("replicas: 2"));
    assert!(compose.contains("./deploy/nginx.conf:"));
    let nginx = read("deploy/nginx.conf");
    assert!(nginx.contains("server nyaya:8080"));
    assert!(
        compose.contains("NYAYA_RATE_LIMIT_PER_S: \"0\""),
        "the proxy limits instead"
    );
    assert!(nginx.contains("limit_req zone=per_client"));
}
