//! Downstream: MySQL (queue, apply, ack), TCP under the model's connections, and Kafka
//! (brokers, the producer and its close, the codec, the consumer).

pub mod kafka;
pub mod mysql;
pub mod mysql_sink;
#[cfg(test)]
mod mysql_sink_tests;
pub mod send_buffer;
pub mod tcp;
pub mod transport;
#[cfg(test)]
mod transport_tests;
