//! Looking a provision up by any spelling a user might write.

use sqlx::PgPool;

use nyaya_ingest::refid::parse_user_ref;

use crate::error::{AppError, AppResult};
use crate::store::{self, ProvisionView};

/// Resolves "Art. 21-A", "seventh schedule", "21a" … to the stored provision.
pub async fn lookup(pool: &PgPool, reference: &str) -> AppResult<ProvisionView> {
    let unknown = || AppError::UnknownRef {
        query: reference.to_string(),
    };
    let parsed = parse_user_ref(reference).ok_or_else(unknown)?;
    store::get_provision(pool, &parsed.id)
        .await?
        .ok_or_else(unknown)
}
