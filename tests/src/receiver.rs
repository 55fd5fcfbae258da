//! A webhook receiver on 127.0.0.1 for the tests: records every request and answers 500 to the
//! first `failures` of them, or answers every request as told (a status, a redirect, 204 late:
//! a slow push service, or not at all: a receiver that stalls).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use serde_json::Value;

/// A request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    /// The request's path (a push service tells its devices apart by it).
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Whether it was answered 2xx.
    pub accepted: bool,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// How a receiver answers every request.
#[derive(Clone, Debug, Default)]
pub enum Answer {
    /// 204, after the first `failures` got 500 (see [`Receiver::start`]).
    #[default]
    Accept,
    /// This status, with `Location` when given (a redirect).
    Status(u16, Option<String>),
    /// 204, but only after this long (recorded when it arrives).
    Late(std::time::Duration),
    /// Nothing: the request is held until the client gives up.
    Stall,
}

#[derive(Default)]
struct Shared {
    received: Mutex<Vec<Received>>,
    failures: AtomicUsize,
    answer: Answer,
}

pub struct Receiver {
    pub url: String,
    shared: Arc<Shared>,
    handle: actix_web::dev::ServerHandle,
}

impl Receiver {
    /// Starts a receiver that answers 500 to its first `failures` requests.
    pub fn start(failures: usize) -> Receiver {
        Self::serve(Shared {
            failures: AtomicUsize::new(failures),
            ..Default::default()
        })
    }

    /// Starts a receiver that answers every request as `answer` says.
    pub fn answering(answer: Answer) -> Receiver {
        Self::serve(Shared {
            answer,
            ..Default::default()
        })
    }

    fn serve(shared: Shared) -> Receiver {
        let shared = Arc::new(shared);
        let data = web::Data::from(shared.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .default_service(web::to(receive))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Receiver {
            url,
            shared,
            handle,
        }
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().unwrap().clone()
    }

    /// Waits until `n` requests were accepted (at most `wait`), and returns all received.
    pub async fn accepted(&self, n: usize, wait: std::time::Duration) -> Vec<Received> {
        let deadline = std::time::Instant::now() + wait;
        loop {
            let received = self.received();
            if received.iter().filter(|r| r.accepted).count() >= n {
                return received;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{n} deliveries not accepted within {wait:?}; received {received:?}"
            );
            actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    pub async fn stop(self) {
        self.handle.stop(false).await;
    }
}

async fn receive(req: HttpRequest, body: web::Bytes, shared: web::Data<Shared>) -> HttpResponse {
    let fail = shared
        .failures
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();
    let accepted = match &shared.answer {
        Answer::Accept => !fail,
        Answer::Status(status, _) => (200..300).contains(status),
        Answer::Late(_) => true,
        Answer::Stall => false,
    };
    shared.received.lock().unwrap().push(Received {
        path: req.path().to_string(),
        headers: req
            .headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
        body: body.to_vec(),
        accepted,
    });
    match &shared.answer {
        Answer::Accept => {}
        Answer::Status(status, location) => {
            let status = actix_web::http::StatusCode::from_u16(*status).unwrap();
            let mut response = HttpResponse::build(status);
            if let Some(location) = location {
                response.insert_header(("Location", location.as_str()));
            }
            return response.finish();
        }
        Answer::Late(delay) => {
            actix_web::rt::time::sleep(*delay).await;
            return HttpResponse::NoContent().finish();
        }
        Answer::Stall => {
            actix_web::rt::time::sleep(std::time::Duration::from_secs(300)).await;
            return HttpResponse::NoContent().finish();
        }
    }
    if fail {
        HttpResponse::InternalServerError().finish()
    } else {
        HttpResponse::NoContent().finish()
    }
}
