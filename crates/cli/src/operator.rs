//! `stud operator create-key --name NAME`: a new operator API key, stored hashed; the key is
//! printed once and cannot be shown again.

use anyhow::Context as _;
use clap::{Args, Subcommand};
use stud_store::OperatorKey;
use uuid::Uuid;

#[derive(Subcommand)]
pub enum OperatorCommand {
    /// Create an operator API key and print it (once).
    CreateKey(CreateKeyArgs),
}

#[derive(Args)]
pub struct CreateKeyArgs {
    /// Who or what the key is for (shown in the audit log).
    #[arg(long)]
    name: String,
    /// The database (also DATABASE_URL; default sqlite://stud.db).
    #[arg(long)]
    database_url: Option<String>,
}

pub fn run(cmd: &OperatorCommand) -> anyhow::Result<()> {
    let OperatorCommand::CreateKey(args) = cmd;
    let name = args.name.trim();
    anyhow::ensure!((1..=64).contains(&name.len()), "--name must be 1 to 64 characters");
    let url = crate::verify::database_url(args.database_url.clone());
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    let key: String = format!("stud_{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async {
        let store = stud_store::open(&url).await.with_context(|| format!("opening {url}"))?;
        let stored = OperatorKey {
            id: Uuid::new_v4(),
            name: name.to_owned(),
            key_hash: stud_store::token_hash(&key),
            created_at_ms: stud_store::now_ms(),
            revoked: false,
        };
        store.add_operator_key(&stored).await.context("storing the key")?;
        anyhow::Ok(())
    })?;
    println!("{key}");
    eprintln!("operator key for {name:?} created; it is shown only now (send it as `Authorization: Bearer KEY`)");
    Ok(())
}
