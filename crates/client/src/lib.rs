//! A small Rust client of the stud server's public protocol: create a guest session over
//! HTTP, then exchange typed messages over a real WebSocket. Used by `stud load` and the
//! end-to-end tests; an app client can build on it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use stud_proto::{ClientMsg, CreateSession, PROTOCOL_VERSION, ServerMsg, SessionCreated, TableSummary};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// What can go wrong talking to a server.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// A socket error.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// A WebSocket error.
    #[error("websocket: {0}")]
    Ws(#[from] Box<tokio_tungstenite::tungstenite::Error>),
    /// The server sent something unexpected.
    #[error("protocol: {0}")]
    Protocol(String),
    /// Nothing arrived in time.
    #[error("timed out waiting for the server")]
    Timeout,
    /// The connection closed.
    #[error("connection closed")]
    Closed,
}

impl From<tokio_tungstenite::tungstenite::Error> for ClientError {
    fn from(e: tokio_tungstenite::tungstenite::Error) -> ClientError {
        ClientError::Ws(Box::new(e))
    }
}

/// `host:port` of an `http://` or `ws://` URL (no TLS here: the server speaks plain HTTP).
pub fn host_port(url: &str) -> String {
    let rest = url.split("://").nth(1).unwrap_or(url);
    rest.split('/').next().unwrap_or(rest).to_owned()
}

/// One HTTP/1.1 request with a JSON body; returns the status and the body.
///
/// # Errors
/// Connection failures or an unparseable response.
pub async fn http(addr: &str, method: &str, path: &str, body: Option<&str>) -> Result<(u16, String), ClientError> {
    http_as(addr, method, path, body, None).await
}

/// [`http`] with `Authorization: Bearer TOKEN` (a session token or the operator key).
///
/// # Errors
/// Connection failures or an unparseable response.
pub async fn http_as(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
    bearer: Option<&str>,
) -> Result<(u16, String), ClientError> {
    let mut stream = TcpStream::connect(addr).await?;
    let body = body.unwrap_or("");
    let auth = bearer.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let text = String::from_utf8_lossy(&response);
    let (head, rest) = text.split_once("\r\n\r\n").ok_or_else(|| ClientError::Protocol("no HTTP header end".into()))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::Protocol(format!("bad status line: {head}")))?;
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    Ok((status, if chunked { dechunk(rest) } else { rest.to_owned() }))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

async fn json<T: DeserializeOwned>(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&impl Serialize>,
) -> Result<T, ClientError> {
    let body = body.map(serde_json::to_string).transpose().map_err(|e| ClientError::Protocol(e.to_string()))?;
    let (status, text) = http(addr, method, path, body.as_deref()).await?;
    if !(200..300).contains(&status) {
        return Err(ClientError::Protocol(format!("{method} {path}: HTTP {status}: {text}")));
    }
    serde_json::from_str(&text).map_err(|e| ClientError::Protocol(format!("{method} {path}: {e}: {text}")))
}

/// `POST /api/sessions`.
///
/// # Errors
/// HTTP or protocol failures.
pub async fn create_session(addr: &str, name: &str) -> Result<SessionCreated, ClientError> {
    json(addr, "POST", "/api/sessions", Some(&CreateSession { name: name.to_owned() })).await
}

/// `GET /api/tables`.
///
/// # Errors
/// HTTP or protocol failures.
pub async fn tables(addr: &str) -> Result<Vec<TableSummary>, ClientError> {
    json::<Vec<TableSummary>>(addr, "GET", "/api/tables", None::<&()>).await
}

/// Bytes read from a socket at a time.
const READ_BUFFER: usize = 4 * 1024;

/// A WebSocket connection speaking the protocol.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects to `ws://addr/ws` without saying hello.
    ///
    /// # Errors
    /// Connection failures.
    pub async fn connect_raw(addr: &str) -> Result<Client, ClientError> {
        // tungstenite's read buffer is 128 KiB by default, allocated per socket and zero-filled
        // up to its size before every read: a third of the load generator's CPU went to that
        // `memset` under saturation. The server's frames are a few hundred bytes; a larger
        // message is read in more than one piece.
        let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
        let (ws, _) =
            tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/ws"), Some(config), false).await?;
        Ok(Client { ws })
    }

    /// Connects and completes the hello/welcome handshake with `token`.
    ///
    /// # Errors
    /// Connection failures or a refused handshake.
    pub async fn connect(addr: &str, token: &str) -> Result<(Client, ServerMsg), ClientError> {
        let mut client = Client::connect_raw(addr).await?;
        client.send(&ClientMsg::Hello { version: PROTOCOL_VERSION, token: token.to_owned() }).await?;
        let welcome = client.recv(Duration::from_secs(10)).await?;
        match welcome {
            ServerMsg::Welcome { .. } => Ok((client, welcome)),
            other => Err(ClientError::Protocol(format!("expected welcome, got {other:?}"))),
        }
    }

    /// Sends a message.
    ///
    /// # Errors
    /// The socket failed.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        let text = serde_json::to_string(msg).map_err(|e| ClientError::Protocol(e.to_string()))?;
        self.send_text(&text).await
    }

    /// Sends raw text (tests use it for malformed input).
    ///
    /// # Errors
    /// The socket failed.
    pub async fn send_text(&mut self, text: &str) -> Result<(), ClientError> {
        self.ws.send(Message::Text(text.into())).await?;
        Ok(())
    }

    /// Sends `bytes` as one binary frame (tests use it: the protocol is text frames).
    ///
    /// # Errors
    /// The socket failed.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        self.ws.send(Message::Binary(bytes.into())).await?;
        Ok(())
    }

    /// Sends `bytes` as one text frame, UTF-8 or not (tests use it for invalid input).
    ///
    /// # Errors
    /// The socket failed.
    pub async fn send_text_bytes(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        use tokio_tungstenite::tungstenite::protocol::frame::{
            Frame,
            coding::{Data, OpCode},
        };
        self.ws.send(Message::Frame(Frame::message(bytes, OpCode::Data(Data::Text), true))).await?;
        Ok(())
    }

    /// Reads until the server closes the connection, skipping other frames; returns the close
    /// frame's code and reason (`None`: closed without one).
    ///
    /// # Errors
    /// Timeout or a socket error.
    pub async fn close_frame(&mut self, within: Duration) -> Result<Option<(u16, String)>, ClientError> {
        loop {
            let next = tokio::time::timeout(within, self.ws.next()).await.map_err(|_| ClientError::Timeout)?;
            match next {
                Some(Ok(Message::Close(frame))) => {
                    return Ok(frame.map(|f| (u16::from(f.code), f.reason.as_str().to_owned())));
                }
                None => return Ok(None),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// The next text frame, raw.
    ///
    /// # Errors
    /// Timeout, closed socket or a socket error.
    pub async fn recv_text(&mut self, within: Duration) -> Result<String, ClientError> {
        loop {
            let next = tokio::time::timeout(within, self.ws.next()).await.map_err(|_| ClientError::Timeout)?;
            match next {
                Some(Ok(Message::Text(t))) => return Ok(t.as_str().to_owned()),
                Some(Ok(Message::Close(_))) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// The next message.
    ///
    /// # Errors
    /// Timeout, closed socket, or a frame that is not a server message.
    pub async fn recv(&mut self, within: Duration) -> Result<ServerMsg, ClientError> {
        let text = self.recv_text(within).await?;
        serde_json::from_str(&text).map_err(|e| ClientError::Protocol(format!("{e}: {text}")))
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
