mod common;
use common::*;
use faultline_sim::Fault;
use faultline_tikv::*;

#[test]
fn smoke() {
    let cfg = TikvConfig { stores: 4, regions: 1000, load: WriteLoad { writes_per_sec: 50 }, ..Default::default() };
    let mut w = world(&cfg, 1);
    run_to(&mut w, 30, 1);
    for n in w.kernel.metrics.names().to_vec() { println!("{n} = {}", last(&w, &n)); }
    let victim = w.model.store_nodes()[0];
    w.kernel.schedule_fault(at(31), Fault::Crash(victim));
    run_to(&mut w, 120, 1);
    println!("---");
    for n in w.kernel.metrics.names().to_vec() { println!("{n} = {}", last(&w, &n)); }
    for e in w.kernel.log.entries().take(30) { println!("{:?} {} {}", e.at, e.message, e.detail); }
    println!("{:?}", w.kernel.log.counts());
}
