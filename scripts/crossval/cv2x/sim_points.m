% The error components of the authors' own C-V2X Mode 4 simulator (Veins), as stored in
% the MATLAB figures of github.com/msepulcre/C-V2X (simulations/<S>subchannels/<Pt>dBm/
% FALLOS_LOS_D2D_<veh/km>vehpkm_16Alg_<1/lambda>s_1520bit.fig), written as CSV. The
% figures hold percentages per 25 m; the PDR is 100 minus the four errors, as the
% authors' CV2XMode4.m computes it (the "SA perdido" line, SCIs lost, is not among them).
%
%   octave-cli --eval 'sim_points("C-V2X/simulations/4subchannels/20dBm/FALLOS_LOS_D2D_100vehpkm_16Alg_0.1s_1520bit.fig", "out.csv")'
function sim_points(fig, out)
  d = load(fig, '-mat');
  ax = d.hgS_070000.children(1);
  names = {'Half Duplex', 'Undersens', 'propagaci', 'colisiones', 'SA perdido'};
  cols = cell(1, numel(names));
  for i = 1:numel(ax.children)
    p = ax.children(i).properties;
    if ~isfield(p, 'YData') || ~isfield(p, 'DisplayName')
      continue
    end
    for k = 1:numel(names)
      if ~isempty(strfind(p.DisplayName, names{k}))
        cols{k} = p.YData / 100;
        x = p.XData;
      end
    end
  end
  if any(cellfun(@isempty, cols))
    error('a line is missing in %s', fig);
  end
  pdr = 1 - cols{1} - cols{2} - cols{3} - cols{4};
  f = fopen(out, 'w');
  fprintf(f, 'distance_m,pdr,half_duplex,sensing,propagation,collision,sci_lost\n');
  for i = 1:numel(x)
    fprintf(f, '%g,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n', x(i), pdr(i), cols{1}(i), cols{2}(i), cols{3}(i), cols{4}(i), cols{5}(i));
  end
  fclose(f);
end
