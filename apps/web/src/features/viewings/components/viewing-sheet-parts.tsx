// The viewing sheet's parts (viewing-sheet-page.tsx): the agency's head and the properties' table.
import type { TViewingSheet } from '@crm/contract';

type X = (key: string) => string;

/** The agency's head: logo, name, address, contacts, web address, and a line for each number set (never a blank after a label). */
export function SheetAgency({ agency, x }: { agency: TViewingSheet['agency']; x: X }) {
  return (
    <header className="viewing-sheet-agency">
      {agency.logo && <img className="viewing-sheet-logo" src={agency.logo} alt="" data-testid="viewing-sheet-logo" />}
      <div className="viewing-sheet-agency-name" data-testid="viewing-sheet-agency">
        {agency.name}
      </div>
      {agency.address && <div>{agency.address}</div>}
      <div className="viewing-sheet-agency-line">
        {agency.phone && (
          <span>
            {x('phone')}: {agency.phone}
          </span>
        )}
        {agency.email && (
          <span>
            {x('email')}: {agency.email}
          </span>
        )}
      </div>
      {agency.website && <div>{agency.website}</div>}
      {/* The registry and tax numbers: a line for each one set, none with a blank after its label. */}
      {(agency.licence || agency.taxNumber) && (
        <div className="viewing-sheet-agency-line">
          {agency.licence && (
            <span>
              {x('licence')}: <span data-testid="viewing-sheet-licence">{agency.licence}</span>
            </span>
          )}
          {agency.taxNumber && (
            <span>
              {x('taxNumber')}: <span data-testid="viewing-sheet-tax-number">{agency.taxNumber}</span>
              {agency.taxOffice && `, ${x('taxOffice')}: ${agency.taxOffice}`}
            </span>
          )}
        </div>
      )}
    </header>
  );
}

/** The properties shown, one row each: reference, type, place, area, price. */
export function SheetObjects({ objects, x }: { objects: TViewingSheet['objects']; x: X }) {
  return (
    <section>
      <h3 id="viewing-sheet-objects">{x('objects')}</h3>
      {/* On a phone the table scrolls sideways within its box (reached and scrolled by keyboard too). */}
      <div className="viewing-sheet-table-wrap" tabIndex={0} role="region" aria-labelledby="viewing-sheet-objects">
        <table className="viewing-sheet-table" aria-labelledby="viewing-sheet-objects" data-testid="viewing-sheet-objects">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{x('referenceNumber')}</th>
              <th scope="col">{x('type')}</th>
              <th scope="col">{x('location')}</th>
              <th scope="col" className="num">
                {x('area')}
              </th>
              <th scope="col" className="num">
                {x('price')}
              </th>
            </tr>
          </thead>
          <tbody>
            {objects.map((o, i) => (
              <tr key={o.referenceNumber}>
                <td>{i + 1}</td>
                <td data-testid="viewing-sheet-ref">{o.referenceNumber}</td>
                <td>{o.type ?? ''}</td>
                <td>{o.location ?? ''}</td>
                <td className="num">{o.area ?? ''}</td>
                <td className="num">{o.price ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
