//! Connecting to Postgres and keeping its schema current.

use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};

use crate::error::AppResult;

/// The migrations in `migrations/`, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The HNSW candidate list every connection starts with. A pgvector HNSW scan returns at most
/// `ef_search` rows however large the LIMIT (default 40), and a short list makes results depend
/// on how the graph happened to be built; 200 covers the dense leg's default depth (50) four
/// times and is nearly exact at this corpus size. The dense leg raises it per query only when
/// asked for more.
pub const HNSW_EF_SEARCH: usize = 200;

/// How long a request waits for a connection. When Postgres is down the pool keeps retrying
/// the connect until this deadline, so it is also how long a request takes to learn that the
/// database is unavailable (a 503 with `Retry-After`): under a second, so load balancers and
/// people are not left hanging (ten seconds, sqlx's default, looked like a hung server).
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_millis(800);

/// Opens a pool and applies pending migrations (start-up always migrates).
pub async fn connect(url: &str) -> AppResult<PgPool> {
    // A many-part question runs a dense and a lexical query per part at once; 16 connections
    // keep them from queueing behind each other.
    let pool = PgPoolOptions::new()
        .max_connections(16)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .after_connect(|conn, _| {
            Box::pin(async move {
                use sqlx::Executor;
                conn.execute(format!("SET hnsw.ef_search = {HNSW_EF_SEARCH}").as_str())
                    .await?;
                // The dense leg filters the index's neighbours to one edition; with several
                // editions stored, a scan that ends short of the LIMIT goes on (in exact order)
                // instead of returning fewer rows (pgvector 0.8).
                conn.execute("SET hnsw.iterative_scan = strict_order")
                    .await?;
                Ok(())
            })
        })
        .connect(url)
        .await?;
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}
